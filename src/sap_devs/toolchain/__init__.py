"""SAP's own Node tools (cds-compiler, @ui5/linter, abaplint): install pinned versions into
sap-devs' data folder, run them bounded, parse their output. Nothing from the user's project runs.

``errors`` (ToolchainMissing), ``locate`` (package folders), ``node`` (a Node new enough) and
``runner`` (run a script bounded) are the interface the adapters (``ui5lint``, ``abaplint`` ...)
build on.
"""
