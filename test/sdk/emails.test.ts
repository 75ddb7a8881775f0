/** The SDK's email methods (issue 14) against the real worker: themes, templates, drafts, the preview, and sendEmail. */
import { describe, expect, it } from "vitest";
import { KnownError } from "../../sdk/src";
import { uniqueEmail } from "../helpers/api";
import { sinkEmailConfig, waitForMail } from "../helpers/mail";
import { internalMemoryApp } from "../helpers/sdk-apps";

const TEMPLATE = `import { Subject, NotificationCategory } from "@stackframe/emails";
export const variablesSchema = (v) => v;
export function EmailTemplate({ user, variables }) {
  return <><Subject value={"Hi " + (user.displayName ?? "friend")} /><NotificationCategory value="Transactional" /><p>Code word: {variables.word}</p></>;
}`;

async function ownedProject() {
  const owner = internalMemoryApp();
  await owner.signUpWithCredential({ email: uniqueEmail("emails-owner"), password: "owner password 1", noRedirect: true });
  const { type: _type, username, password, host, port, sender_email, sender_name } = sinkEmailConfig();
  return (await owner.getUser({ or: "throw" }))!.createProject({
    displayName: "SDK mail",
    config: { emailConfig: { type: "standard", host, port, username, password, senderName: sender_name, senderEmail: sender_email } },
  });
}

describe("SDK emails", () => {
  it("themes, templates, drafts, the preview and sendEmail through the admin app", async () => {
    const project = await ownedProject();
    const admin = project.app;
    const themes = await admin.listEmailThemes();
    expect(themes.map((t) => t.displayName)).toEqual(["Default Light", "Default Dark"]);
    const { id: themeId } = await admin.createEmailTheme("Brand");
    expect((await admin.getEmailTheme(themeId)).displayName).toBe("Brand");
    await admin.renameEmailTheme(themeId, "Brand 2");
    expect((await admin.listEmailThemes()).find((t) => t.id === themeId)?.displayName).toBe("Brand 2");

    const templates = await admin.listEmailTemplates();
    // with Doorman's "password sign-in locked" notice (issue 25), the payment receipt and failed-payment mails,
    // and the new-device verification code (issue 29)
    expect(templates).toHaveLength(11);
    const { id: templateId } = await admin.createEmailTemplate("Code word");
    const saved = await admin.updateEmailTemplate(templateId, TEMPLATE, false);
    expect(saved.renderedHtml).toContain("Code word:");
    expect((await admin.getEmailTemplate(templateId)).themeId).toBe(false);

    const preview = await admin.renderEmail({ templateId, themeId, variables: { word: "swordfish" } });
    expect(preview).toMatchObject({ subject: "Hi John Doe", notificationCategory: "Transactional" });
    expect(preview.text).toContain("Code word: swordfish");
    expect(await admin.getEmailPreview({ templateTsxSource: TEMPLATE, themeId: false })).toContain("Code word:");
    const failed = await admin
      .renderEmail({ templateTsxSource: "export function EmailTemplate() { throw new Error('nope'); }" })
      .catch((e) => e);
    expect(failed).toBeInstanceOf(KnownError);
    expect((failed as KnownError).code).toBe("EMAIL_RENDERING_ERROR");

    const { id: draftId } = await admin.createEmailDraft({
      displayName: "Draft",
      tsxSource: TEMPLATE,
      themeId: false,
      templateVariables: { word: "x" },
    });
    await admin.updateEmailDraft(draftId, { displayName: "Draft 2" });
    expect((await admin.listEmailDrafts()).map((d) => d.displayName)).toEqual(["Draft 2"]);

    const email = uniqueEmail("sdk-send");
    const user = await admin.createUser({ primaryEmail: email, displayName: "Bea" });
    const results = await admin.sendEmail({ userIds: [user.id], templateId, variables: { word: "tulip" } });
    expect(results).toEqual([
      { userId: user.id, userEmail: email, success: true, status: "queued", error: null, emailId: expect.any(String) },
    ]);
    const [mail] = await waitForMail(email);
    expect(mail!.subject).toBe("Hi Bea");
    expect(mail!.text).toContain("Code word: tulip");

    const viaDraft = await admin.sendEmail({ userIds: [user.id], draftId });
    expect(viaDraft[0]!.status).toBe("queued");
    expect((await admin.getEmailDraft(draftId)).sentAt).toBeInstanceOf(Date);
    await admin.deleteEmailDraft(draftId);
    await admin.deleteEmailTemplate(templateId);
    await admin.deleteEmailTheme(themeId);
    expect(await admin.listEmailThemes()).toHaveLength(2);
  });
});
