"""The ``qsg`` command and its subcommands: the top layer.

``cli`` is the entry point (``qsg run``, ``validate``, ``report`` ...); ``chaos``,
``console`` (``qsg mqsc``), ``exec`` and ``pipeline`` (``qsg metrics``, ``sweep``,
``report`` on Spark) are its subcommands; ``helpers``, ``options``, ``run_view``,
``display`` and ``replicate`` are what they share. Nothing below this package imports it.
"""
