"""The reference web GUI (`python3 -m engine.gui`): a browser page that drives engine processes
through their stdin/stdout protocol. Needs the `gui` extra; `import engine` never imports it."""
