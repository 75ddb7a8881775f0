/** Email drafts: an owner's messages in the making (TSX, a theme choice, variables), sent with send-email's `draft_id`. */
import {
  deleteEmailDraft,
  type EmailDraftRow,
  findEmailDraft,
  insertEmailDraft,
  listEmailDraftRows,
  updateEmailDraft,
} from "../../db/queries/email-drafts";
import type { Deps } from "../deps";
import type { ThemeChoice } from "./rendering";

/** A new draft's source (as the reference's): a Marketing message greeting the user. */
export const NEW_DRAFT_SOURCE = `import { Container } from "@react-email/components";
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export function EmailTemplate({ user, project }: Props) {
  return (
    <Container>
      <Subject value={"Hello " + (user.displayName ?? "there") + "!"} />
      <NotificationCategory value="Marketing" />
      <div className="font-bold">Hi {user.displayName}!</div>
      <br />
    </Container>
  );
}
`;

type ThemeMode = "project-default" | "none" | "custom";

function themeModeOf(choice: ThemeChoice): { themeMode: ThemeMode; themeId: string | null } {
  if (choice === false) return { themeMode: "none", themeId: null };
  if (typeof choice === "string") return { themeMode: "custom", themeId: choice };
  return { themeMode: "project-default", themeId: null };
}

/** The draft's theme choice on the wire: an id, false (none), or undefined (the project's active theme). */
export function draftThemeChoice(row: EmailDraftRow): string | false | undefined {
  if (row.themeMode === "none") return false;
  if (row.themeMode === "custom" && row.themeId) return row.themeId;
  return undefined;
}

export function listEmailDrafts(deps: Deps, projectId: string): Promise<EmailDraftRow[]> {
  return listEmailDraftRows(deps.db, projectId);
}

export function getEmailDraft(deps: Deps, projectId: string, id: string): Promise<EmailDraftRow | null> {
  return findEmailDraft(deps.db, projectId, id);
}

export type DraftFields = {
  displayName?: string;
  themeId?: ThemeChoice;
  tsxSource?: string;
  templateVariables?: Record<string, unknown>;
};

export async function createEmailDraft(
  deps: Deps,
  projectId: string,
  fields: DraftFields & { displayName: string },
): Promise<EmailDraftRow> {
  const now = deps.now();
  const row: EmailDraftRow = {
    id: deps.random.uuid(),
    projectId,
    displayName: fields.displayName,
    tsxSource: fields.tsxSource ?? NEW_DRAFT_SOURCE,
    ...themeModeOf(fields.themeId),
    templateVariables: fields.templateVariables ?? {},
    sentAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertEmailDraft(deps.db, row);
  return row;
}

/** Updates the given fields; false when the project has no such draft. */
export function updateEmailDraftFields(deps: Deps, projectId: string, id: string, fields: DraftFields): Promise<boolean> {
  const patch: Parameters<typeof updateEmailDraft>[3] = { updatedAt: deps.now() };
  if (fields.displayName !== undefined) patch.displayName = fields.displayName;
  if (fields.tsxSource !== undefined) patch.tsxSource = fields.tsxSource;
  if (fields.templateVariables !== undefined) patch.templateVariables = fields.templateVariables;
  if (fields.themeId !== undefined) Object.assign(patch, themeModeOf(fields.themeId));
  return updateEmailDraft(deps.db, projectId, id, patch);
}

export function removeEmailDraft(deps: Deps, projectId: string, id: string): Promise<boolean> {
  return deleteEmailDraft(deps.db, projectId, id);
}

export async function markEmailDraftSent(deps: Deps, projectId: string, id: string): Promise<void> {
  await updateEmailDraft(deps.db, projectId, id, { sentAt: deps.now() });
}
