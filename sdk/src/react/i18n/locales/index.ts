/**
 * Every locale the SDK ships besides English (which the React entry carries). Import only the
 * ones an app offers, so the others cost nothing in its bundle:
 *
 * @example
 * import { de, fr } from "@doorman/sdk/react/i18n/locales";
 * <StackProvider app={app} translations={{ de, fr }}>…</StackProvider>
 * // or all of them (the hosted pages do):
 * <StackProvider app={app} translations={allLocales} locale={fromAcceptLanguage}>…</StackProvider>
 */
import { en } from "../en";
import type { Translations } from "../translator";
import { ar } from "./ar";
import { de } from "./de";
import { es } from "./es";
import { fr } from "./fr";
import { it } from "./it";
import { ja } from "./ja";
import { ko } from "./ko";
import { nl } from "./nl";
import { pl } from "./pl";
import { ptBR } from "./pt-BR";
import { tr } from "./tr";
import { zhCN } from "./zh-CN";

export { ar, de, en, es, fr, it, ja, ko, nl, pl, ptBR, tr, zhCN };

/** All 13 catalogues by locale tag (the tags of SDK_LOCALES). */
export const allLocales: Translations = {
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
