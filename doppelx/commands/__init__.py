"""Sub-commands of ``doppelx``; each module has ``register(subparsers)`` (see ``doppelx.cli``)."""
