/**
 * The translator in React context: `StackProvider` puts one in, `useTranslation()` reads it
 * (English when there is no provider above).
 */
import { createContext, useContext } from "react";
import { englishI18n, type I18n } from "./translator";

export const I18nContext = createContext<I18n>(englishI18n);

/**
 * The current locale's strings and formatters.
 *
 * @example
 * const { t, formatDate } = useTranslation();
 * <h2>{t("sessions.heading")}</h2>
 */
export function useTranslation(): I18n {
  return useContext(I18nContext);
}
