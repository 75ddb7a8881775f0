/** The built-in emails in Polish (second person, worded to avoid gendered verb forms). */
import type { EmailMessages } from "./types";

export const pl: EmailMessages = {
  common: {
    greeting: "Cześć!",
    greetingNamed: "Cześć, {name}!",
    ignore: "Jeśli nie oczekujesz tej wiadomości, możesz ją bezpiecznie zignorować.",
  },
  email_verification: {
    subject: "Potwierdź swój adres e-mail w {project}",
    heading: "Potwierdź swój adres e-mail w {project}",
    paragraph: "Potwierdź, że ten adres e-mail należy do Ciebie.",
    button: "Potwierdź mój e-mail",
  },
  password_reset: {
    subject: "Zresetuj hasło w {project}",
    heading: "Zresetuj hasło w {project}",
    paragraph: "Ktoś poprosił o zresetowanie Twojego hasła. Link działa jednorazowo i wygasa.",
    button: "Zresetuj hasło",
  },
  magic_link: {
    subject: "Zaloguj się do {project}: Twój kod to {otp}",
    heading: "Zaloguj się do {project}",
    paragraph: "Twój jednorazowy kod znajduje się poniżej: wpisz go, aby się zalogować, lub użyj przycisku.",
    button: "Zaloguj się",
  },
  team_invitation: {
    subject: "Zaproszenie do dołączenia do {teamDisplayName}",
    heading: "Zaproszenie do {teamDisplayName}",
    paragraph: "Kliknij przycisk poniżej, aby dołączyć do zespołu {teamDisplayName} w {project}.",
    button: "Dołącz do zespołu",
  },
  sign_in_invitation: {
    subject: "Zaproszenie do {project}",
    heading: "Zaproszenie do zalogowania się w {teamDisplayName}",
    paragraph: "Kliknij przycisk poniżej, aby zalogować się na swoje konto.",
    button: "Zaloguj się",
  },
  password_changed: {
    subject: "Hasło w {project} zostało zmienione",
    heading: "Twoje hasło zostało zmienione",
    paragraph: "Hasło do Twojego konta w {project} zostało właśnie zmienione.",
    footnote: "Jeśli ta zmiana nie pochodzi od Ciebie, zresetuj teraz hasło i sprawdź aktywne sesje swojego konta.",
  },
  new_sign_in: {
    subject: "Nowe logowanie na Twoje konto w {project}",
    heading: "Nowe logowanie na Twoje konto",
    paragraph: "Ktoś zalogował się na Twoje konto w {project} z urządzenia lub miejsca, którego wcześniej nie widzieliśmy.",
    device: "Urządzenie: {signInDevice}",
    location: "Lokalizacja: {signInLocation}",
    time: "Czas: {signInTime}",
    footnote: "Jeśli to Ty, możesz zignorować tę wiadomość. Jeśli nie, zmień teraz hasło i wyloguj się z pozostałych sesji.",
  },
  sign_in_locked: {
    subject: "Zbyt wiele błędnych haseł do Twojego konta w {project}",
    heading: "Logowanie hasłem jest tymczasowo zablokowane",
    paragraph:
      "Ktoś zbyt wiele razy wpisał błędne hasło do Twojego konta w {project}, dlatego logowanie hasłem jest wstrzymane do {lockedUntil}. Nadal możesz zalogować się kodem wysłanym e-mailem, kluczem dostępu lub połączonym kontem.",
    footnote: "Jeśli to nie Ty, Twoje hasło nie zostało zaakceptowane. Rozważ zmianę na długie, unikalne hasło.",
  },
  payment_receipt: {
    subject: "Potwierdzenie płatności od {project}",
    heading: "Dziękujemy za zakup",
    paragraph: "Płatność za {productName} została zrealizowana.",
    total: "Zapłacono łącznie: {amount}",
    quantity: "Ilość: {quantity}",
    button: "Zobacz potwierdzenie",
    footnote: "Zachowaj tę wiadomość w swojej dokumentacji.",
  },
  payment_failed: {
    subject: "Płatność w {project} nie powiodła się",
    heading: "Twoja płatność nie została zrealizowana",
    paragraph: "Nie udało się pobrać płatności w wysokości {amount} za {productName}.",
    button: "Zaktualizuj płatność",
    footnote: "Zaktualizuj metodę płatności, aby zachować subskrypcję.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Twój kod logowania do {project}: {otp}",
    heading: "Potwierdź, że to Ty",
    paragraph:
      "Ktoś zalogował się na Twoje konto w {project} przy użyciu Twojego hasła z urządzenia, którego wcześniej nie widzieliśmy. Aby dokończyć logowanie na tym urządzeniu, wpisz ten kod:",
    footnote: "Jeśli to nie Ty, nie udostępniaj kodu i od razu zmień hasło.",
  },
  fallbacks: {
    unknownDevice: "Nieznane urządzenie",
    unknownLocation: "Nieznana lokalizacja",
    purchase: "Zakup",
    subscription: "Subskrypcja",
  },
};
