import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { focusFirstError } from "./focus-first-error";

/** A stand-in element that records focus. */
const control = (name: string, focused: string[]) => ({ focus: () => focused.push(name) });

describe("focusFirstError", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("focuses the form's first invalid control, one task later", () => {
    const focused: string[] = [];
    const form = {
      querySelector: (selector: string) => (selector === '[aria-invalid="true"]' ? control("email", focused) : control("alert", focused)),
    } as unknown as HTMLFormElement;
    focusFirstError(form);
    expect(focused).toEqual([]);
    vi.runAllTimers();
    expect(focused).toEqual(["email"]);
  });

  it("focuses the form's alert when no control is invalid", () => {
    const focused: string[] = [];
    const form = {
      querySelector: (selector: string) => (selector === '[role="alert"]' ? control("alert", focused) : null),
    } as unknown as HTMLFormElement;
    focusFirstError(form);
    vi.runAllTimers();
    expect(focused).toEqual(["alert"]);
  });

  it("focuses the control of the first field error, by id", () => {
    const focused: string[] = [];
    const doc = { getElementById: (id: string) => control(id, focused) as unknown as HTMLElement };
    focusFirstError({ "offer-form-name": "Enter a name.", "offer-form-group": "Use letters." }, doc);
    vi.runAllTimers();
    expect(focused).toEqual(["offer-form-name"]);
  });

  it("does nothing without a form or errors", () => {
    const focused: string[] = [];
    const doc = { getElementById: (id: string) => control(id, focused) as unknown as HTMLElement };
    focusFirstError(null);
    focusFirstError({}, doc);
    vi.runAllTimers();
    expect(focused).toEqual([]);
  });
});
