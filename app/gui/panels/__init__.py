"""The main window's panels: input, cipher selection, options, progress, environment."""
