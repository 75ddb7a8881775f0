/** The built-in emails' texts in every locale (one typed catalogue: a missing key fails `npm run check`). */
import type { EmailLocale } from "../locale";
import { ar } from "./ar";
import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { it } from "./it";
import { ja } from "./ja";
import { ko } from "./ko";
import { nl } from "./nl";
import { pl } from "./pl";
import { ptBR } from "./pt-BR";
import { tr } from "./tr";
import type { EmailMessages } from "./types";
import { zhCN } from "./zh-CN";

export type { EmailMessages } from "./types";

export const EMAIL_MESSAGES: Readonly<Record<EmailLocale, EmailMessages>> = {
  en,
  de,
  es,
  fr,
  it,
  "pt-BR": ptBR,
  nl,
  pl,
  tr,
  ja,
  ko,
  "zh-CN": zhCN,
  ar,
};
