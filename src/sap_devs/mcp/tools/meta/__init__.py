"""Progressive disclosure (seed 004): search the operations, inspect their types, call them."""
