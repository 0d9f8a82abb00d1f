"""``qsg serve``: a scenario played on the wall clock behind IBM MQ's REST API (mqweb).

The server runs in the same trio run as the world (hypercorn's trio worker serving a
Starlette application), so a REST put and a scenario application's get meet in one
simulated queue manager. The modules, one job each:

- ``command``: the click command, its options and its one-line errors;
- ``clock``: the wall clock run ``--speed`` times faster;
- ``server``: the world and the HTTP server in one trio run;
- ``app``: the routes (messaging, administration, login, console);
- ``messaging``: POST, DELETE and GET of ``.../queue/{queue}/message`` (MQPUT, MQGET);
- ``admin``: ``.../mqsc`` (runCommand, runCommandJSON), ``/admin/qmgr``, ``/admin/installation``;
- ``security``: users and roles, basic authentication, the login token, CSRF;
- ``errors``: IBM's error body (``{"error": [...]}``) and the MQWB messages used;
- ``live``: the console's state and its stream of updates.

docs/rest.md is the user's guide.
"""
