package io.specwatch.runtime;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The one masking rule of every app: a setting whose key names a secret (password, secret, jaas,
 * key, token, credentials, user info) is printed as {@value #HIDDEN}, and the user info of a URL
 * ({@code https://user:pass@host}) is hidden too.
 */
public final class Secrets {

  /** What a secret value prints as. */
  public static final String HIDDEN = "[hidden]";

  private static final String[] SECRET_WORDS = {
    "password", "secret", "jaas", "key", "token", "credential", "user.info", "userinfo"
  };

  private static final Pattern URL_USER_INFO =
      Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\\s]+@");

  private Secrets() {}

  /**
   * Whether a setting's key names a secret. Serializer/deserializer class keys ({@code
   * key.serializer}) and the key-store type/location are not secrets.
   */
  public static boolean isSecretKey(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    if (k.startsWith("key.") || k.endsWith(".type") || k.endsWith(".location")) {
      return k.contains("password") || k.contains("secret") || k.contains("jaas");
    }
    for (String w : SECRET_WORDS) {
      if (k.contains(w)) {
        return true;
      }
    }
    return false;
  }

  /** The value to print for a setting: {@value #HIDDEN} for a secret, a URL without user info. */
  public static String mask(String key, Object value) {
    if (value == null) {
      return "null";
    }
    return isSecretKey(key) ? HIDDEN : maskText(String.valueOf(value));
  }

  /** A sorted copy of settings with every secret masked. */
  public static Map<String, String> mask(Map<String, ?> settings) {
    Map<String, String> out = new TreeMap<>();
    settings.forEach((k, v) -> out.put(k, mask(k, v)));
    return out;
  }

  /** A text (URL, exception message) with the user info of every URL in it hidden. */
  public static String maskText(String text) {
    if (text == null) {
      return null;
    }
    return URL_USER_INFO.matcher(text).replaceAll("$1" + HIDDEN + "@");
  }
}
