/** Credentials the test SMTP sink accepts (shared by the Node-side sink and workerd-side tests). */
export const SINK_USERNAME = "doorman";
export const SINK_PASSWORD = "sink-password";
