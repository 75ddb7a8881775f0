/** The built-in emails in French ("vous"; a no-break space before ! : ?, as French typography has it). */
import type { EmailMessages } from "./types";

export const fr: EmailMessages = {
  common: {
    greeting: "Bonjour\u00a0!",
    greetingNamed: "Bonjour {name}\u00a0!",
    ignore: "Si vous n’attendiez pas cet e-mail, vous pouvez l’ignorer sans risque.",
  },
  email_verification: {
    subject: "Vérifiez votre adresse e-mail sur {project}",
    heading: "Vérifiez votre adresse e-mail sur {project}",
    paragraph: "Veuillez confirmer que cette adresse e-mail vous appartient.",
    button: "Vérifier mon adresse e-mail",
  },
  password_reset: {
    subject: "Réinitialisez votre mot de passe sur {project}",
    heading: "Réinitialisez votre mot de passe sur {project}",
    paragraph: "Quelqu’un a demandé la réinitialisation de votre mot de passe. Le lien ne fonctionne qu’une fois et expire.",
    button: "Réinitialiser mon mot de passe",
  },
  magic_link: {
    subject: "Connexion à {project}\u00a0: votre code est {otp}",
    heading: "Connexion à {project}",
    paragraph: "Votre code à usage unique figure ci-dessous\u00a0: saisissez-le pour vous connecter, ou utilisez le bouton.",
    button: "Se connecter",
  },
  team_invitation: {
    subject: "Vous êtes invité à rejoindre {teamDisplayName}",
    heading: "Invitation à rejoindre {teamDisplayName}",
    paragraph: "Cliquez sur le bouton ci-dessous pour rejoindre l’équipe {teamDisplayName} sur {project}.",
    button: "Rejoindre l’équipe",
  },
  sign_in_invitation: {
    subject: "Vous êtes invité sur {project}",
    heading: "Vous êtes invité à vous connecter à {teamDisplayName}",
    paragraph: "Cliquez sur le bouton ci-dessous pour vous connecter à votre compte.",
    button: "Se connecter",
  },
  password_changed: {
    subject: "Votre mot de passe sur {project} a été modifié",
    heading: "Votre mot de passe a été modifié",
    paragraph: "Le mot de passe de votre compte {project} vient d’être modifié.",
    footnote:
      "Si vous n’êtes pas à l’origine de ce changement, réinitialisez votre mot de passe maintenant et vérifiez les sessions actives de votre compte.",
  },
  new_sign_in: {
    subject: "Nouvelle connexion à votre compte {project}",
    heading: "Nouvelle connexion à votre compte",
    paragraph: "Une connexion à votre compte {project} a eu lieu depuis un appareil ou un lieu que nous n’avions jamais vu.",
    device: "Appareil\u00a0: {signInDevice}",
    location: "Lieu\u00a0: {signInLocation}",
    time: "Heure\u00a0: {signInTime}",
    footnote:
      "Si c’était vous, vous pouvez ignorer cet e-mail. Sinon, changez votre mot de passe maintenant et déconnectez vos autres sessions.",
  },
  sign_in_locked: {
    subject: "Trop de mots de passe erronés pour votre compte {project}",
    heading: "La connexion par mot de passe est bloquée pour le moment",
    paragraph:
      "Quelqu’un a saisi un mauvais mot de passe pour votre compte {project} trop de fois\u00a0: la connexion par mot de passe est suspendue jusqu’à {lockedUntil}. Vous pouvez toujours vous connecter avec un code envoyé par e-mail, une clé d’accès ou un compte associé.",
    footnote: "Si ce n’était pas vous, votre mot de passe n’a pas été accepté. Pensez à le remplacer par un mot de passe long et unique.",
  },
  payment_receipt: {
    subject: "Votre reçu de {project}",
    heading: "Merci pour votre achat",
    paragraph: "Votre paiement pour {productName} est effectué.",
    total: "Total payé\u00a0: {amount}",
    quantity: "Quantité\u00a0: {quantity}",
    button: "Voir le reçu",
    footnote: "Conservez cet e-mail pour vos archives.",
  },
  payment_failed: {
    subject: "Échec du paiement pour {project}",
    heading: "Votre paiement n’a pas abouti",
    paragraph: "Nous n’avons pas pu encaisser le paiement de {amount} pour {productName}.",
    button: "Mettre à jour le paiement",
    footnote: "Mettez à jour votre moyen de paiement pour conserver votre abonnement.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Votre code de connexion {project} : {otp}",
    heading: "Confirmez qu’il s’agit bien de vous",
    paragraph:
      "Quelqu’un s’est connecté à votre compte {project} avec votre mot de passe depuis un appareil que nous ne connaissons pas. Pour terminer la connexion sur cet appareil, saisissez ce code :",
    footnote: "Si ce n’était pas vous, ne communiquez pas ce code et changez votre mot de passe dès maintenant.",
  },
  fallbacks: { unknownDevice: "Appareil inconnu", unknownLocation: "Lieu inconnu", purchase: "Achat", subscription: "Abonnement" },
};
