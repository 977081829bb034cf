"""deskworld inside the training and evaluation stacks people use: code that needs none of their
libraries (a TRL spec's environment class and reward functions, Harbor task folders). Packages that
import a stack's own library live in ``examples/<stack>/`` with their own virtualenvs."""
