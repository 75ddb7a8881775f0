/** The built-in emails in Brazilian Portuguese ("você"). */
import type { EmailMessages } from "./types";

export const ptBR: EmailMessages = {
  common: {
    greeting: "Olá!",
    greetingNamed: "Olá, {name}!",
    ignore: "Se você não esperava este e-mail, pode ignorá-lo com segurança.",
  },
  email_verification: {
    subject: "Confirme seu e-mail em {project}",
    heading: "Confirme seu e-mail em {project}",
    paragraph: "Confirme que este endereço de e-mail pertence a você.",
    button: "Confirmar meu e-mail",
  },
  password_reset: {
    subject: "Redefina sua senha em {project}",
    heading: "Redefina sua senha em {project}",
    paragraph: "Alguém pediu para redefinir sua senha. O link funciona uma única vez e expira.",
    button: "Redefinir minha senha",
  },
  magic_link: {
    subject: "Entrar em {project}: seu código é {otp}",
    heading: "Entrar em {project}",
    paragraph: "Seu código de uso único está abaixo: digite-o para entrar ou use o botão.",
    button: "Entrar",
  },
  team_invitation: {
    subject: "Você recebeu um convite para participar de {teamDisplayName}",
    heading: "Convite para {teamDisplayName}",
    paragraph: "Clique no botão abaixo para entrar na equipe {teamDisplayName} em {project}.",
    button: "Entrar na equipe",
  },
  sign_in_invitation: {
    subject: "Você recebeu um convite para {project}",
    heading: "Você foi convidado a entrar em {teamDisplayName}",
    paragraph: "Clique no botão abaixo para entrar na sua conta.",
    button: "Entrar",
  },
  password_changed: {
    subject: "Sua senha em {project} foi alterada",
    heading: "Sua senha foi alterada",
    paragraph: "A senha da sua conta {project} acabou de ser alterada.",
    footnote: "Se não foi você que a alterou, redefina sua senha agora e revise as sessões ativas da sua conta.",
  },
  new_sign_in: {
    subject: "Novo acesso à sua conta {project}",
    heading: "Novo acesso à sua conta",
    paragraph: "Sua conta {project} foi acessada de um dispositivo ou local que não tínhamos visto antes.",
    device: "Dispositivo: {signInDevice}",
    location: "Local: {signInLocation}",
    time: "Horário: {signInTime}",
    footnote: "Se foi você, pode ignorar este e-mail. Caso contrário, altere sua senha agora e saia das suas outras sessões.",
  },
  sign_in_locked: {
    subject: "Muitas senhas erradas na sua conta {project}",
    heading: "O acesso com senha está bloqueado por enquanto",
    paragraph:
      "Alguém digitou uma senha errada na sua conta {project} vezes demais, então o acesso com senha está pausado até {lockedUntil}. Você ainda pode entrar com um código enviado por e-mail, uma chave de acesso ou uma conta vinculada.",
    footnote: "Se não foi você, sua senha não foi aceita. Considere trocá-la por uma senha longa e exclusiva.",
  },
  payment_receipt: {
    subject: "Seu recibo de {project}",
    heading: "Obrigado pela sua compra",
    paragraph: "Seu pagamento de {productName} foi concluído.",
    total: "Total pago: {amount}",
    quantity: "Quantidade: {quantity}",
    button: "Ver recibo",
    footnote: "Guarde este e-mail para seus registros.",
  },
  payment_failed: {
    subject: "Falha no pagamento em {project}",
    heading: "Seu pagamento não foi concluído",
    paragraph: "Não conseguimos cobrar o pagamento de {amount} referente a {productName}.",
    button: "Atualizar pagamento",
    footnote: "Atualize sua forma de pagamento para manter sua assinatura.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Seu código de login do {project}: {otp}",
    heading: "Confirme que é você",
    paragraph:
      "Alguém entrou na sua conta do {project} com a sua senha a partir de um dispositivo que ainda não conhecemos. Para concluir o login nesse dispositivo, digite este código:",
    footnote: "Se não foi você, não compartilhe o código e altere sua senha agora.",
  },
  fallbacks: {
    unknownDevice: "Dispositivo desconhecido",
    unknownLocation: "Local desconhecido",
    purchase: "Compra",
    subscription: "Assinatura",
  },
};
