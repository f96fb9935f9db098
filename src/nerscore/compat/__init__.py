"""Drop-in replacements for other scorers' APIs, giving their numbers."""
