"""Measuring and showing: ``deskworld bench`` and the README screenshots."""
