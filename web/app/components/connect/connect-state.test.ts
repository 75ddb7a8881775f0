/** The Connect page's hand-over from a keys panel: only a well-formed publishable key is taken. */
import { describe, expect, test } from "vitest";
import { connectPath, connectState, readConnectState } from "./connect-state";

describe("connect state", () => {
  test("a new key set with a publishable key hands it over; one without hands nothing", () => {
    const state = connectState({ publishableClientKey: "pck_abc", description: "Web app" });
    expect(state).toEqual({ publishableClientKey: "pck_abc", keySetDescription: "Web app" });
    expect(readConnectState(state)).toEqual(state);
    expect(connectState({ description: "Server only" })).toBeUndefined();
  });

  test("anything else in the history state is ignored", () => {
    for (const bad of [null, undefined, "pck_abc", 42, {}, { publishableClientKey: 7 }, { publishableClientKey: "" }])
      expect(readConnectState(bad)).toBeNull();
    expect(readConnectState({ publishableClientKey: "x".repeat(513) })).toBeNull();
    expect(readConnectState({ publishableClientKey: "pck_abc" })).toEqual({
      publishableClientKey: "pck_abc",
      keySetDescription: "the new key set",
    });
  });

  test("the page's path names the project", () => {
    expect(connectPath("3f9c-1")).toBe("/projects/3f9c-1/connect");
  });
});
