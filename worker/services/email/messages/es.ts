/** The built-in emails in Spanish (informal "tú", as most apps write). */
import type { EmailMessages } from "./types";

export const es: EmailMessages = {
  common: {
    greeting: "¡Hola!",
    greetingNamed: "¡Hola, {name}!",
    ignore: "Si no esperabas este correo, puedes ignorarlo sin problema.",
  },
  email_verification: {
    subject: "Verifica tu correo electrónico en {project}",
    heading: "Verifica tu correo electrónico en {project}",
    paragraph: "Confirma que esta dirección de correo electrónico te pertenece.",
    button: "Verificar mi correo",
  },
  password_reset: {
    subject: "Restablece tu contraseña en {project}",
    heading: "Restablece tu contraseña en {project}",
    paragraph: "Alguien ha solicitado restablecer tu contraseña. El enlace funciona una sola vez y caduca.",
    button: "Restablecer mi contraseña",
  },
  magic_link: {
    subject: "Inicia sesión en {project}: tu código es {otp}",
    heading: "Inicia sesión en {project}",
    paragraph: "Tu código de un solo uso está abajo: escríbelo para iniciar sesión o usa el botón.",
    button: "Iniciar sesión",
  },
  team_invitation: {
    subject: "Te han invitado a unirte a {teamDisplayName}",
    heading: "Tienes una invitación a {teamDisplayName}",
    paragraph: "Haz clic en el botón de abajo para unirte al equipo {teamDisplayName} en {project}.",
    button: "Unirme al equipo",
  },
  sign_in_invitation: {
    subject: "Te han invitado a {project}",
    heading: "Tienes una invitación para iniciar sesión en {teamDisplayName}",
    paragraph: "Haz clic en el botón de abajo para iniciar sesión en tu cuenta.",
    button: "Iniciar sesión",
  },
  password_changed: {
    subject: "Se ha cambiado tu contraseña en {project}",
    heading: "Se ha cambiado tu contraseña",
    paragraph: "La contraseña de tu cuenta de {project} se acaba de cambiar.",
    footnote: "Si no la has cambiado tú, restablece tu contraseña ahora y revisa las sesiones activas de tu cuenta.",
  },
  new_sign_in: {
    subject: "Nuevo inicio de sesión en tu cuenta de {project}",
    heading: "Nuevo inicio de sesión en tu cuenta",
    paragraph: "Se ha iniciado sesión en tu cuenta de {project} desde un dispositivo o lugar que no habíamos visto antes.",
    device: "Dispositivo: {signInDevice}",
    location: "Ubicación: {signInLocation}",
    time: "Hora: {signInTime}",
    footnote: "Si fuiste tú, puedes ignorar este correo. Si no, cambia tu contraseña ahora y cierra tus otras sesiones.",
  },
  sign_in_locked: {
    subject: "Demasiadas contraseñas incorrectas en tu cuenta de {project}",
    heading: "El inicio de sesión con contraseña está bloqueado por ahora",
    paragraph:
      "Alguien ha escrito una contraseña incorrecta para tu cuenta de {project} demasiadas veces, así que el inicio de sesión con contraseña queda en pausa hasta {lockedUntil}. Aún puedes iniciar sesión con un código enviado por correo, una llave de acceso o una cuenta vinculada.",
    footnote: "Si no fuiste tú, tu contraseña no fue aceptada. Considera cambiarla por una larga y única.",
  },
  payment_receipt: {
    subject: "Tu recibo de {project}",
    heading: "Gracias por tu compra",
    paragraph: "Tu pago de {productName} se ha completado.",
    total: "Total pagado: {amount}",
    quantity: "Cantidad: {quantity}",
    button: "Ver recibo",
    footnote: "Guarda este correo para tus registros.",
  },
  payment_failed: {
    subject: "Pago fallido en {project}",
    heading: "Tu pago no se ha podido completar",
    paragraph: "No hemos podido cobrar el pago de {amount} por {productName}.",
    button: "Actualizar pago",
    footnote: "Actualiza tu método de pago para mantener tu suscripción.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "Tu código de inicio de sesión de {project}: {otp}",
    heading: "Confirma que eres tú",
    paragraph:
      "Alguien inició sesión en tu cuenta de {project} con tu contraseña desde un dispositivo que no habíamos visto antes. Para terminar de iniciar sesión allí, escribe este código:",
    footnote: "Si no fuiste tú, no compartas el código y cambia tu contraseña ahora.",
  },
  fallbacks: {
    unknownDevice: "Dispositivo desconocido",
    unknownLocation: "Ubicación desconocida",
    purchase: "Compra",
    subscription: "Suscripción",
  },
};
