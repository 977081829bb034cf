"""Quality control: task checks, verifier adversaries, agreement with human labels, rubric judges."""
