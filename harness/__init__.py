"""deskworld harness: browser launch, the Gymnasium env, tasks, verifiers, runner and CLI."""
