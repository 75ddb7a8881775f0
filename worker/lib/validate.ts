/** TEMPORARY re-export while routes move to worker/http (issue 10); removed when the last route is converted. */
export * from "../http/validate";
