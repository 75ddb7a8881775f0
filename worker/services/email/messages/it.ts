/** The built-in emails in Italian (informal "tu", as most apps write). */
import type { EmailMessages } from "./types";

export const it: EmailMessages = {
  common: {
    greeting: "Ciao!",
    greetingNamed: "Ciao {name}!",
    ignore: "Se non aspettavi questa email, puoi ignorarla tranquillamente.",
  },
  email_verification: {
    subject: "Verifica la tua email su {project}",
    heading: "Verifica la tua email su {project}",
    paragraph: "Conferma che questo indirizzo email ti appartiene.",
    button: "Verifica la mia email",
  },
  password_reset: {
    subject: "Reimposta la tua password su {project}",
    heading: "Reimposta la tua password su {project}",
    paragraph: "Qualcuno ha chiesto di reimpostare la tua password. Il link funziona una sola volta e scade.",
    button: "Reimposta la password",
  },
  magic_link: {
    subject: "Accedi a {project}: il tuo codice è {otp}",
    heading: "Accedi a {project}",
    paragraph: "Il tuo codice monouso è qui sotto: inseriscilo per accedere oppure usa il pulsante.",
    button: "Accedi",
  },
  team_invitation: {
    subject: "Hai ricevuto un invito a unirti a {teamDisplayName}",
    heading: "Sei invitato in {teamDisplayName}",
    paragraph: "Fai clic sul pulsante qui sotto per unirti al team {teamDisplayName} su {project}.",
    button: "Unisciti al team",
  },
  sign_in_invitation: {
    subject: "Hai ricevuto un invito per {project}",
    heading: "Sei invitato ad accedere a {teamDisplayName}",
    paragraph: "Fai clic sul pulsante qui sotto per accedere al tuo account.",
    button: "Accedi",
  },
  password_changed: {
    subject: "La tua password su {project} è stata modificata",
    heading: "La tua password è stata modificata",
    paragraph: "La password del tuo account {project} è stata appena modificata.",
    footnote: "Se non l’hai modificata tu, reimposta subito la password e controlla le sessioni attive del tuo account.",
  },
  new_sign_in: {
    subject: "Nuovo accesso al tuo account {project}",
    heading: "Nuovo accesso al tuo account",
    paragraph: "È stato effettuato un accesso al tuo account {project} da un dispositivo o da un luogo che non avevamo mai visto.",
    device: "Dispositivo: {signInDevice}",
    location: "Luogo: {signInLocation}",
    time: "Ora: {signInTime}",
    footnote: "Se sei stato tu, puoi ignorare questa email. Altrimenti, cambia subito la password ed esci dalle altre sessioni.",
  },
  sign_in_locked: {
    subject: "Troppe password errate per il tuo account {project}",
    heading: "L’accesso con password è bloccato per ora",
    paragraph:
      "Qualcuno ha inserito troppe volte una password errata per il tuo account {project}, quindi l’accesso con password è sospeso fino a {lockedUntil}. Puoi comunque accedere con un codice inviato via email, una passkey o un account collegato.",
    footnote: "Se non sei stato tu, la tua password non è stata accettata. Valuta di sostituirla con una lunga e unica.",
  },
  payment_receipt: {
    subject: "La tua ricevuta da {project}",
    heading: "Grazie per il tuo acquisto",
    paragraph: "Il pagamento per {productName} è stato completato.",
    total: "Totale pagato: {amount}",
    quantity: "Quantità: {quantity}",
    button: "Visualizza ricevuta",
    footnote: "Conserva questa email per i tuoi archivi.",
  },
  payment_failed: {
    subject: "Pagamento non riuscito per {project}",
    heading: "Il tuo pagamento non è andato a buon fine",
    paragraph: "Non siamo riusciti a riscuotere il pagamento di {amount} per {productName}.",
    button: "Aggiorna il pagamento",
    footnote: "Aggiorna il metodo di pagamento per mantenere il tuo abbonamento.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Il tuo codice di accesso a {project}: {otp}",
    heading: "Conferma che sei tu",
    paragraph:
      "Qualcuno ha effettuato l’accesso al tuo account {project} con la tua password da un dispositivo che non abbiamo mai visto. Per completare l’accesso su quel dispositivo, inserisci questo codice:",
    footnote: "Se non sei stato tu, non condividere il codice e cambia subito la password.",
  },
  fallbacks: {
    unknownDevice: "Dispositivo sconosciuto",
    unknownLocation: "Luogo sconosciuto",
    purchase: "Acquisto",
    subscription: "Abbonamento",
  },
};
