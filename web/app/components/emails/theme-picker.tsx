/** A labelled theme <select>: the project's active theme, no theme, or one of the project's themes. */
import type { EmailThemeChoice } from "@doorman/sdk";
import { themeChoiceFrom, themeChoiceValue } from "./email-names";

export function ThemePicker(props: {
  id: string;
  themes: { id: string; displayName: string }[];
  value: EmailThemeChoice;
  onChange: (choice: string | false | null) => void;
  label?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label ?? "Theme"}</label>
      <select
        id={props.id}
        className="input"
        value={themeChoiceValue(props.value)}
        onChange={(e) => props.onChange(themeChoiceFrom(e.target.value))}
      >
        <option value="">The project&apos;s active theme</option>
        <option value="none">No theme</option>
        {props.themes.map((t) => (
          <option key={t.id} value={t.id}>
            {t.displayName}
          </option>
        ))}
      </select>
    </div>
  );
}
