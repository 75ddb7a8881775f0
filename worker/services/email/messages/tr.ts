/** The built-in emails in Turkish ("siz"; worded so no suffix attaches to a name). */
import type { EmailMessages } from "./types";

export const tr: EmailMessages = {
  common: {
    greeting: "Merhaba!",
    greetingNamed: "Merhaba {name}!",
    ignore: "Bu e-postayı beklemiyorsanız güvenle yok sayabilirsiniz.",
  },
  email_verification: {
    subject: "{project} için e-posta adresinizi doğrulayın",
    heading: "{project} için e-posta adresinizi doğrulayın",
    paragraph: "Lütfen bu e-posta adresinin size ait olduğunu onaylayın.",
    button: "E-postamı doğrula",
  },
  password_reset: {
    subject: "{project} için şifrenizi sıfırlayın",
    heading: "{project} için şifrenizi sıfırlayın",
    paragraph: "Birisi şifrenizin sıfırlanmasını istedi. Bağlantı yalnızca bir kez çalışır ve süresi dolar.",
    button: "Şifremi sıfırla",
  },
  magic_link: {
    subject: "{project} için giriş yapın: Kodunuz {otp}",
    heading: "{project} için giriş yapın",
    paragraph: "Tek kullanımlık kodunuz aşağıda: giriş yapmak için yazın veya düğmeyi kullanın.",
    button: "Giriş yap",
  },
  team_invitation: {
    subject: "{teamDisplayName} ekibine katılmaya davet edildiniz",
    heading: "{teamDisplayName} ekibine davetlisiniz",
    paragraph: "{project} üzerindeki {teamDisplayName} ekibine katılmak için aşağıdaki düğmeye tıklayın.",
    button: "Ekibe katıl",
  },
  sign_in_invitation: {
    subject: "{project} için davet edildiniz",
    heading: "{teamDisplayName} için giriş yapmaya davet edildiniz",
    paragraph: "Hesabınıza giriş yapmak için aşağıdaki düğmeye tıklayın.",
    button: "Giriş yap",
  },
  password_changed: {
    subject: "{project} şifreniz değiştirildi",
    heading: "Şifreniz değiştirildi",
    paragraph: "{project} hesabınızın şifresi az önce değiştirildi.",
    footnote: "Bunu siz değiştirmediyseniz şifrenizi hemen sıfırlayın ve hesabınızın etkin oturumlarını gözden geçirin.",
  },
  new_sign_in: {
    subject: "{project} hesabınızda yeni oturum açıldı",
    heading: "Hesabınızda yeni oturum açıldı",
    paragraph: "{project} hesabınıza daha önce görmediğimiz bir cihazdan veya konumdan giriş yapıldı.",
    device: "Cihaz: {signInDevice}",
    location: "Konum: {signInLocation}",
    time: "Zaman: {signInTime}",
    footnote: "Bu sizseniz bu e-postayı yok sayabilirsiniz. Değilse şifrenizi hemen değiştirin ve diğer oturumlarınızdan çıkış yapın.",
  },
  sign_in_locked: {
    subject: "{project} hesabınız için çok fazla hatalı şifre girildi",
    heading: "Şifreyle giriş şimdilik kilitlendi",
    paragraph:
      "Birisi {project} hesabınız için çok kez hatalı şifre girdi; bu yüzden şifreyle giriş şu zamana kadar duraklatıldı: {lockedUntil}. E-postayla gönderilen bir kod, bir geçiş anahtarı veya bağlı bir hesapla yine giriş yapabilirsiniz.",
    footnote: "Bu siz değilseniz şifreniz kabul edilmedi. Şifrenizi uzun ve benzersiz bir şifreyle değiştirmeyi düşünün.",
  },
  payment_receipt: {
    subject: "{project} makbuzunuz",
    heading: "Satın aldığınız için teşekkürler",
    paragraph: "{productName} için ödemeniz tamamlandı.",
    total: "Ödenen toplam: {amount}",
    quantity: "Adet: {quantity}",
    button: "Makbuzu görüntüle",
    footnote: "Bu e-postayı kayıtlarınız için saklayın.",
  },
  payment_failed: {
    subject: "{project} için ödeme başarısız oldu",
    heading: "Ödemeniz gerçekleşmedi",
    paragraph: "{productName} için {amount} tutarındaki ödemeyi tahsil edemedik.",
    button: "Ödemeyi güncelle",
    footnote: "Aboneliğinizi sürdürmek için ödeme yönteminizi güncelleyin.",
  },
  // New-device verification (issue 29): the code a password sign-in from an unknown device waits for.
  device_verification: {
    subject: "{project} giriş kodunuz: {otp}",
    heading: "Siz olduğunuzu doğrulayın",
    paragraph:
      "Birisi daha önce görmediğimiz bir cihazdan şifrenizle {project} hesabınıza giriş yaptı. Orada girişi tamamlamak için bu kodu yazın:",
    footnote: "Bu siz değilseniz kodu kimseyle paylaşmayın ve şifrenizi hemen değiştirin.",
  },
  fallbacks: { unknownDevice: "Bilinmeyen cihaz", unknownLocation: "Bilinmeyen konum", purchase: "Satın alma", subscription: "Abonelik" },
};
