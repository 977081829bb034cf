"""People in the loop: ``deskworld record`` — a person does tasks in the agent's own observation and
action space, recorded as agent ``human:<name>`` in the run layout (``harness.human.live`` is the
person-as-agent, ``harness.human.recording`` the tasks one after another, ``harness.human.server`` the
page they use, ``harness.human.direct`` the real window of ``--direct``, ``harness.human.cli`` the
command)."""
