"""The tools a user runs beside the engine, each a module with a main() installed as a
`gipf-*` command (pyproject.toml [project.scripts]); scripts/ holds thin launchers."""
