/** The built-in emails in German (formal "Sie"). */
import type { EmailMessages } from "./types";

export const de: EmailMessages = {
  common: {
    greeting: "Hallo!",
    greetingNamed: "Hallo {name}!",
    ignore: "Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie einfach ignorieren.",
  },
  email_verification: {
    subject: "Bestätigen Sie Ihre E-Mail-Adresse bei {project}",
    heading: "Bestätigen Sie Ihre E-Mail-Adresse bei {project}",
    paragraph: "Bitte bestätigen Sie, dass diese E-Mail-Adresse Ihnen gehört.",
    button: "E-Mail-Adresse bestätigen",
  },
  password_reset: {
    subject: "Setzen Sie Ihr Passwort bei {project} zurück",
    heading: "Setzen Sie Ihr Passwort bei {project} zurück",
    paragraph: "Jemand hat angefordert, Ihr Passwort zurückzusetzen. Der Link funktioniert nur einmal und läuft ab.",
    button: "Passwort zurücksetzen",
  },
  magic_link: {
    subject: "Bei {project} anmelden: Ihr Code lautet {otp}",
    heading: "Bei {project} anmelden",
    paragraph: "Ihr Einmalcode steht unten: Geben Sie ihn zur Anmeldung ein oder nutzen Sie die Schaltfläche.",
    button: "Anmelden",
  },
  team_invitation: {
    subject: "Sie wurden eingeladen, {teamDisplayName} beizutreten",
    heading: "Einladung zu {teamDisplayName}",
    paragraph: "Klicken Sie auf die Schaltfläche unten, um dem Team {teamDisplayName} bei {project} beizutreten.",
    button: "Team beitreten",
  },
  sign_in_invitation: {
    subject: "Sie wurden zu {project} eingeladen",
    heading: "Sie sind eingeladen, sich bei {teamDisplayName} anzumelden",
    paragraph: "Klicken Sie auf die Schaltfläche unten, um sich bei Ihrem Konto anzumelden.",
    button: "Anmelden",
  },
  password_changed: {
    subject: "Ihr Passwort bei {project} wurde geändert",
    heading: "Ihr Passwort wurde geändert",
    paragraph: "Das Passwort Ihres Kontos bei {project} wurde soeben geändert.",
    footnote: "Wenn Sie es nicht geändert haben, setzen Sie Ihr Passwort jetzt zurück und prüfen Sie die aktiven Sitzungen Ihres Kontos.",
  },
  new_sign_in: {
    subject: "Neue Anmeldung bei Ihrem Konto bei {project}",
    heading: "Neue Anmeldung bei Ihrem Konto",
    paragraph: "Jemand hat sich von einem Gerät oder Ort, den wir bisher nicht kannten, bei Ihrem Konto bei {project} angemeldet.",
    device: "Gerät: {signInDevice}",
    location: "Ort: {signInLocation}",
    time: "Zeit: {signInTime}",
    footnote:
      "Wenn Sie das waren, können Sie diese E-Mail ignorieren. Wenn nicht, ändern Sie jetzt Ihr Passwort und melden Sie Ihre anderen Sitzungen ab.",
  },
  sign_in_locked: {
    subject: "Zu viele falsche Passwörter für Ihr Konto bei {project}",
    heading: "Die Anmeldung mit Passwort ist vorerst gesperrt",
    paragraph:
      "Jemand hat zu oft ein falsches Passwort für Ihr Konto bei {project} eingegeben, daher ist die Anmeldung mit dem Passwort bis {lockedUntil} pausiert. Sie können sich weiterhin mit einem per E-Mail gesendeten Code, einem Passkey oder einem verknüpften Konto anmelden.",
    footnote:
      "Wenn Sie das nicht waren: Ihr Passwort wurde nicht akzeptiert. Ändern Sie es am besten in ein langes, einzigartiges Passwort.",
  },
  payment_receipt: {
    subject: "Ihre Quittung von {project}",
    heading: "Vielen Dank für Ihren Kauf",
    paragraph: "Ihre Zahlung für {productName} ist abgeschlossen.",
    total: "Gesamtbetrag: {amount}",
    quantity: "Menge: {quantity}",
    button: "Quittung ansehen",
    footnote: "Bewahren Sie diese E-Mail für Ihre Unterlagen auf.",
  },
  payment_failed: {
    subject: "Zahlung für {project} fehlgeschlagen",
    heading: "Ihre Zahlung ist nicht durchgegangen",
    paragraph: "Wir konnten die Zahlung von {amount} für {productName} nicht einziehen.",
    button: "Zahlungsmethode aktualisieren",
    footnote: "Aktualisieren Sie Ihre Zahlungsmethode, um Ihr Abonnement zu behalten.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Ihr Anmeldecode für {project}: {otp}",
    heading: "Bestätigen Sie, dass Sie es sind",
    paragraph:
      "Jemand hat sich mit Ihrem Passwort von einem uns unbekannten Gerät bei Ihrem Konto bei {project} angemeldet. Geben Sie diesen Code dort ein, um die Anmeldung abzuschließen:",
    footnote: "Wenn Sie das nicht waren, geben Sie den Code nicht weiter und ändern Sie jetzt Ihr Passwort.",
  },
  fallbacks: { unknownDevice: "Unbekanntes Gerät", unknownLocation: "Unbekannter Ort", purchase: "Kauf", subscription: "Abonnement" },
};
