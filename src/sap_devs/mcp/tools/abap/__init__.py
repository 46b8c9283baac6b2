"""Tools on the user's ABAP system through ADT; registered only when SAP_URL is configured."""
