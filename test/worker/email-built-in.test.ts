/**
 * Every email Doorman sends on its own is rendered from its template (issue 14), checked in the
 * SMTP sink: verification, reset, sign-in code, team and sign-in invitations, password changed,
 * and the new-sign-in notice. An owner's edit of a template is what goes out.
 */
import { describe, expect, it } from "vitest";
import { call, createProjectWithKeys, signUp, uniqueEmail } from "../helpers/api";
import { codeFrom, sinkEmailConfig, waitForMail } from "../helpers/mail";
import { workerFetch } from "../helpers/worker-fetch";

const CALLBACK = "http://localhost:3000/handler/callback";
const VERIFICATION = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";

async function signInFrom(
  p: { projectId: string; client: { publishableClientKey: string } },
  user: { email: string; password: string },
  device: { ua?: string; country?: string },
) {
  const res = await workerFetch("http://localhost/api/v1/auth/password/sign-in", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-project-id": p.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": p.client.publishableClientKey,
      ...(device.ua ? { "user-agent": device.ua } : {}),
    },
    body: JSON.stringify({ email: user.email, password: user.password }),
    ...(device.country ? { cf: { country: device.country } } : {}),
  } as RequestInit);
  expect(res.status).toBe(200);
}

describe("built-in emails", () => {
  it("verification (as edited by the owner), reset, sign-in code and password changed come from their templates", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig(), magic_link_enabled: true });
    const edited = `import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ project, variables }) {
  return <><Subject value={"Confirm your address for " + project.displayName} /><NotificationCategory value="Transactional" /><a href={variables.emailVerificationLink}>Confirm it</a></>;
}`;
    expect(
      (await call(`/internal/email-templates/${VERIFICATION}`, { ...p.admin, method: "PATCH", body: { tsx_source: edited } })).status,
    ).toBe(200);
    const user = await signUp(p.client);
    const as = { ...p.client, accessToken: user.accessToken };

    await call("/contact-channels/send-verification-code", { ...as, body: { email: user.email, callback_url: CALLBACK } });
    const [verify] = await waitForMail(user.email);
    expect(verify!.subject).toBe("Confirm your address for Test project");
    expect(verify!.text).toContain("Confirm it");
    expect(codeFrom(verify!)).toHaveLength(45);

    await call("/auth/password/send-reset-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const reset = (await waitForMail(user.email, 2))[1]!;
    expect(reset.subject).toBe("Reset your password at Test project");
    expect(reset.text).toContain("Reset my password");
    expect(codeFrom(reset)).toHaveLength(45);

    // A sign-in code goes only to a verified address (USER_EMAIL_ALREADY_EXISTS otherwise, as the reference).
    expect((await call("/contact-channels/verify", { ...p.client, body: { code: codeFrom(verify!) } })).status).toBe(200);
    await call("/auth/otp/send-sign-in-code", { ...p.client, body: { email: user.email, callback_url: CALLBACK } });
    const otp = (await waitForMail(user.email, 3))[2]!;
    expect(otp.subject).toMatch(/^Sign in to Test project: Your code is [A-Z0-9]{6}$/);
    // The code alone in its paragraph: the reference's clients read it as `>CODE</p>`.
    expect(otp.html).toMatch(/>[A-Z0-9]{6}<\/p>/);

    const updated = await call("/auth/password/update", {
      ...as,
      body: { old_password: user.password, new_password: "another good password" },
    });
    expect(updated.status, updated.text).toBe(200);
    const changed = (await waitForMail(user.email, 4))[3]!;
    expect(changed.subject).toBe("Your password at Test project was changed");
    expect(changed.text).toContain("was just changed");

    // The log keeps the codes of these emails redacted.
    const log = (await call("/internal/emails", p.admin)).body.items as { subject: string; id: string }[];
    const logged = await call(`/internal/emails/${log.find((e) => e.subject.startsWith("Reset"))!.id}`, p.admin);
    expect(logged.body.text).toContain("[redacted]");
    expect(logged.body.text).not.toContain(codeFrom(reset));
  });

  it("team and sign-in invitations come from their templates", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const team = await call("/teams", { ...p.server, body: { display_name: "Rocket Crew" } });
    const invitee = uniqueEmail("invitee");
    const sent = await call("/team-invitations/send-code", {
      ...p.server,
      body: { team_id: team.body.id, email: invitee, callback_url: CALLBACK },
    });
    expect(sent.status, sent.text).toBe(200);
    const [invitation] = await waitForMail(invitee);
    expect(invitation!.subject).toBe("You have been invited to join Rocket Crew");
    expect(invitation!.text).toContain("Join team");

    const guest = uniqueEmail("guest");
    await call("/internal/send-sign-in-invitation", { ...p.admin, body: { email: guest, callback_url: "http://localhost:3000/welcome" } });
    const [welcome] = await waitForMail(guest);
    expect(welcome!.subject).toBe("You have been invited to Test project");
    expect(welcome!.text).toContain("http://localhost:3000/welcome");
  });

  it("a sign-in from a new user agent and country sends the new-sign-in notice once; the first sign-in and known devices do not", async () => {
    const p = await createProjectWithKeys({ email_config: sinkEmailConfig() });
    const user = await signUp(p.client);
    await signInFrom(p, user, {});
    const firefox = { ua: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", country: "DE" };
    await signInFrom(p, user, firefox);
    await signInFrom(p, user, firefox);
    const [notice, ...more] = await waitForMail(user.email);
    expect(more).toEqual([]);
    expect(notice!.subject).toBe("New sign-in to your Test project account");
    expect(notice!.text).toContain("Firefox/128.0");
    expect(notice!.text).toContain("Location: DE");
    // Same browser from another country is new again.
    await signInFrom(p, user, { ...firefox, country: "FR" });
    expect((await waitForMail(user.email, 2)).map((m) => m.subject)).toEqual([notice!.subject, notice!.subject]);
  });
});
