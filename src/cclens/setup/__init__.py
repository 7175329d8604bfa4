"""``cclens setup``: make cclens part of Claude Code (hooks, status line, MCP server) and take
it back; ``cclens hook``: archive a session when Claude Code says it ends or compacts."""
