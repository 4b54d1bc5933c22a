// The HTTP plugin's JS API: being written.
