import { describe, expect, it } from "vitest";
import type { OwnedProject } from "../../lib/dashboard-types";
import { defaultInvitationUrl, emailProblem, teamNameProblem, urlProblem, userIdProblem } from "./team-fields";

describe("team field checks", () => {
  it("wants a team name of 1 to 256 characters", () => {
    expect(teamNameProblem("  ")).toBe("Please enter a team name.");
    expect(teamNameProblem("a".repeat(257))).toBe("At most 256 characters.");
    expect(teamNameProblem("Acme")).toBeNull();
  });
  it("wants user ids to be UUIDs, an empty optional one being fine", () => {
    expect(userIdProblem("")).toBe("Please enter a user id.");
    expect(userIdProblem("", true)).toBeNull();
    expect(userIdProblem("nope")).toMatch(/looks like/);
    expect(userIdProblem(" 123e4567-e89b-12d3-a456-426614174000 ")).toBeNull();
  });
  it("checks emails and invitation URLs", () => {
    expect(emailProblem("")).toBe("Please enter an email address.");
    expect(emailProblem("a@b")).toMatch(/does not look/);
    expect(emailProblem("a@b.co")).toBeNull();
    expect(urlProblem("")).toMatch(/Please enter/);
    expect(urlProblem("ftp://x.example")).toBe("Use an http(s) URL.");
    expect(urlProblem("not a url")).toMatch(/Enter a full URL/);
    expect(urlProblem("https://app.example.com/handler/team-invitation")).toBeNull();
  });
});

describe("defaultInvitationUrl", () => {
  const project = (domains: { domain: string; handlerPath: string }[]) => ({ id: "p1", config: { domains } }) as unknown as OwnedProject;
  it("is the first trusted domain's team-invitation page", () => {
    expect(defaultInvitationUrl(project([{ domain: "https://app.example.com/", handlerPath: "/auth/" }]))).toBe(
      "https://app.example.com/auth/team-invitation",
    );
    expect(defaultInvitationUrl(project([{ domain: "https://app.example.com", handlerPath: "" }]))).toBe(
      "https://app.example.com/handler/team-invitation",
    );
    expect(defaultInvitationUrl(project([{ domain: "https://a.example", handlerPath: "h" }]))).toBe("https://a.example/h/team-invitation");
  });
  it("is the project's hosted team-invitation page without a domain", () => {
    expect(defaultInvitationUrl(project([]), "https://auth.doorman.dev")).toBe("https://auth.doorman.dev/p/p1/handler/team-invitation");
  });
});
