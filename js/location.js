// The location plugin's JS API: not written yet (the plugin is not registered, so this never loads).
