"""Errors raised for bad input: the CLI turns them into one-line messages, exit code 2."""


class InputError(ValueError):
    """Bad user input: cards, stage, bet sizes. The message names the problem."""


class ConfigError(InputError):
    """An unknown key or an unplayable value in a game configuration; the message names the key."""
