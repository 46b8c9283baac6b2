"""Tools over SAP learning content: developers.sap.com tutorials and learning.sap.com journeys."""
