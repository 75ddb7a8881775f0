/** The built-in emails in Dutch (informal "je", as most apps write). */
import type { EmailMessages } from "./types";

export const nl: EmailMessages = {
  common: {
    greeting: "Hallo!",
    greetingNamed: "Hallo {name}!",
    ignore: "Had je deze e-mail niet verwacht? Dan kun je hem gewoon negeren.",
  },
  email_verification: {
    subject: "Bevestig je e-mailadres bij {project}",
    heading: "Bevestig je e-mailadres bij {project}",
    paragraph: "Bevestig dat dit e-mailadres van jou is.",
    button: "Mijn e-mailadres bevestigen",
  },
  password_reset: {
    subject: "Stel je wachtwoord opnieuw in bij {project}",
    heading: "Stel je wachtwoord opnieuw in bij {project}",
    paragraph: "Iemand heeft gevraagd om je wachtwoord opnieuw in te stellen. De link werkt één keer en verloopt.",
    button: "Wachtwoord opnieuw instellen",
  },
  magic_link: {
    subject: "Inloggen bij {project}: je code is {otp}",
    heading: "Inloggen bij {project}",
    paragraph: "Je eenmalige code staat hieronder: typ hem in om in te loggen, of gebruik de knop.",
    button: "Inloggen",
  },
  team_invitation: {
    subject: "Je bent uitgenodigd voor {teamDisplayName}",
    heading: "Uitnodiging voor {teamDisplayName}",
    paragraph: "Klik op de knop hieronder om lid te worden van het team {teamDisplayName} bij {project}.",
    button: "Lid worden van het team",
  },
  sign_in_invitation: {
    subject: "Je bent uitgenodigd voor {project}",
    heading: "Je bent uitgenodigd om in te loggen bij {teamDisplayName}",
    paragraph: "Klik op de knop hieronder om in te loggen op je account.",
    button: "Inloggen",
  },
  password_changed: {
    subject: "Je wachtwoord bij {project} is gewijzigd",
    heading: "Je wachtwoord is gewijzigd",
    paragraph: "Het wachtwoord van je account bij {project} is zojuist gewijzigd.",
    footnote: "Heb je het niet zelf gewijzigd? Stel je wachtwoord dan nu opnieuw in en controleer de actieve sessies van je account.",
  },
  new_sign_in: {
    subject: "Nieuwe aanmelding op je account bij {project}",
    heading: "Nieuwe aanmelding op je account",
    paragraph: "Er is op je account bij {project} ingelogd vanaf een apparaat of plaats die we nog niet eerder zagen.",
    device: "Apparaat: {signInDevice}",
    location: "Locatie: {signInLocation}",
    time: "Tijd: {signInTime}",
    footnote: "Was jij dit? Dan kun je deze e-mail negeren. Zo niet, wijzig dan nu je wachtwoord en log uit op je andere sessies.",
  },
  sign_in_locked: {
    subject: "Te veel verkeerde wachtwoorden voor je account bij {project}",
    heading: "Inloggen met wachtwoord is tijdelijk geblokkeerd",
    paragraph:
      "Iemand heeft te vaak een verkeerd wachtwoord ingevoerd voor je account bij {project}, dus inloggen met het wachtwoord is gepauzeerd tot {lockedUntil}. Je kunt nog steeds inloggen met een gemailde code, een passkey of een gekoppeld account.",
    footnote: "Was jij dit niet? Je wachtwoord is niet geaccepteerd. Overweeg het te vervangen door een lang, uniek wachtwoord.",
  },
  payment_receipt: {
    subject: "Je bon van {project}",
    heading: "Bedankt voor je aankoop",
    paragraph: "Je betaling voor {productName} is voltooid.",
    total: "Totaal betaald: {amount}",
    quantity: "Aantal: {quantity}",
    button: "Bon bekijken",
    footnote: "Bewaar deze e-mail voor je administratie.",
  },
  payment_failed: {
    subject: "Betaling mislukt voor {project}",
    heading: "Je betaling is niet gelukt",
    paragraph: "We konden de betaling van {amount} voor {productName} niet innen.",
    button: "Betaling bijwerken",
    footnote: "Werk je betaalmethode bij om je abonnement te behouden.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Je inlogcode voor {project}: {otp}",
    heading: "Bevestig dat jij het bent",
    paragraph:
      "Iemand is met je wachtwoord ingelogd op je {project}-account vanaf een apparaat dat we nog niet kennen. Typ deze code om het inloggen daar af te ronden:",
    footnote: "Was jij dit niet? Deel de code dan niet en wijzig nu je wachtwoord.",
  },
  fallbacks: { unknownDevice: "Onbekend apparaat", unknownLocation: "Onbekende locatie", purchase: "Aankoop", subscription: "Abonnement" },
};
