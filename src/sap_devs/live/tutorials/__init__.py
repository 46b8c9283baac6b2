"""developers.sap.com tutorials: the index and its search (index), tutorial markdown (markdown), sync."""
