"""HTTP routes: ``audits`` (submit, poll, list, batch), ``claims`` (search), ``health``."""
