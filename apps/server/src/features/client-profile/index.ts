// The client-profile feature's face: what other features may use of it. Everything else in this folder is its own.
