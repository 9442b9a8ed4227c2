"""Running plans: the runtime loop over the simulated robot, the cloud orchestrator and its Experience
supervisor, durable workflow state, cloud-step composers, path A, the HTTP service and the crash drill."""
