"""``cclens mcp``: Claude Code (or any MCP client) reads its own history through the index.

Needs the ``mcp`` extra (``pip install 'cclens[mcp]'``). :mod:`.tools` answers each tool from
the index; :mod:`.server` registers them with the official MCP SDK and runs it.
"""
