package dev.machinery.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.machinery.cel.NetAddresses.Cidr;
import dev.machinery.cel.NetAddresses.Ip;
import java.util.List;

/**
 * Kubernetes' {@code ip} and {@code cidr} CEL libraries: {@code ip()}, {@code isIP}, {@code
 * ip.isCanonical}, {@code family}, {@code isUnspecified}, {@code isLoopback}, {@code
 * isLinkLocalMulticast}, {@code isLinkLocalUnicast}, {@code isGlobalUnicast}, {@code cidr()},
 * {@code isCIDR}, {@code containsIP}, {@code containsCIDR}, {@code ip()} of a prefix, {@code
 * prefixLength}, {@code masked} and {@code string()} of both types, with the overload names and
 * errors of Kubernetes'. Stateless.
 */
final class IpCidrLibrary {
  static final OpaqueType IP = OpaqueType.create("net.IP");
  static final OpaqueType CIDR = OpaqueType.create("net.CIDR");

  private IpCidrLibrary() {}

  static List<CelFunctionDecl> declarations() {
    CelType bool = SimpleType.BOOL;
    CelType string = SimpleType.STRING;
    return List.of(
        fn(
            "ip",
            CelOverloadDecl.newGlobalOverload("string_to_ip", IP, string),
            CelOverloadDecl.newMemberOverload("cidr_ip", IP, CIDR)),
        fn("family", CelOverloadDecl.newMemberOverload("ip_family", SimpleType.INT, IP)),
        fn("ip.isCanonical", CelOverloadDecl.newGlobalOverload("ip_is_canonical", bool, string)),
        fn("isUnspecified", CelOverloadDecl.newMemberOverload("ip_is_unspecified", bool, IP)),
        fn("isLoopback", CelOverloadDecl.newMemberOverload("ip_is_loopback", bool, IP)),
        fn(
            "isLinkLocalMulticast",
            CelOverloadDecl.newMemberOverload("ip_is_link_local_multicast", bool, IP)),
        fn(
            "isLinkLocalUnicast",
            CelOverloadDecl.newMemberOverload("ip_is_link_local_unicast", bool, IP)),
        fn("isGlobalUnicast", CelOverloadDecl.newMemberOverload("ip_is_global_unicast", bool, IP)),
        fn("isIP", CelOverloadDecl.newGlobalOverload("is_ip", bool, string)),
        fn(
            "string",
            CelOverloadDecl.newGlobalOverload("ip_to_string", string, IP),
            CelOverloadDecl.newGlobalOverload("cidr_to_string", string, CIDR)),
        fn("cidr", CelOverloadDecl.newGlobalOverload("string_to_cidr", CIDR, string)),
        fn(
            "containsIP",
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_string", bool, CIDR, string),
            CelOverloadDecl.newMemberOverload("cidr_contains_ip_ip", bool, CIDR, IP)),
        fn(
            "containsCIDR",
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr_string", bool, CIDR, string),
            CelOverloadDecl.newMemberOverload("cidr_contains_cidr", bool, CIDR, CIDR)),
        fn(
            "prefixLength",
            CelOverloadDecl.newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR)),
        fn("masked", CelOverloadDecl.newMemberOverload("cidr_masked", CIDR, CIDR)),
        fn("isCIDR", CelOverloadDecl.newGlobalOverload("is_cidr", bool, string)));
  }

  private static CelFunctionDecl fn(String name, CelOverloadDecl... overloads) {
    return CelFunctionDecl.newFunctionDeclaration(name, overloads);
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_ip", String.class, IpCidrLibrary::ip),
        CelFunctionBinding.from("cidr_ip", Cidr.class, Cidr::ip),
        CelFunctionBinding.from("ip_family", Ip.class, ip -> (long) ip.family()),
        CelFunctionBinding.from(
            "ip_is_canonical", String.class, text -> ip(text).toString().equals(text)),
        CelFunctionBinding.from("ip_is_unspecified", Ip.class, Ip::isUnspecified),
        CelFunctionBinding.from("ip_is_loopback", Ip.class, Ip::isLoopback),
        CelFunctionBinding.from("ip_is_link_local_multicast", Ip.class, Ip::isLinkLocalMulticast),
        CelFunctionBinding.from("ip_is_link_local_unicast", Ip.class, Ip::isLinkLocalUnicast),
        CelFunctionBinding.from("ip_is_global_unicast", Ip.class, Ip::isGlobalUnicast),
        CelFunctionBinding.from("is_ip", String.class, IpCidrLibrary::isIp),
        CelFunctionBinding.from("ip_to_string", Ip.class, Ip::toString),
        CelFunctionBinding.from("cidr_to_string", Cidr.class, Cidr::toString),
        CelFunctionBinding.from("string_to_cidr", String.class, IpCidrLibrary::cidr),
        CelFunctionBinding.from(
            "cidr_contains_ip_string",
            Cidr.class,
            String.class,
            (cidr, text) -> cidr.contains(ip(text))),
        CelFunctionBinding.from("cidr_contains_ip_ip", Cidr.class, Ip.class, Cidr::contains),
        CelFunctionBinding.from(
            "cidr_contains_cidr_string",
            Cidr.class,
            String.class,
            (cidr, text) -> cidr.containsCidr(cidr(text))),
        CelFunctionBinding.from("cidr_contains_cidr", Cidr.class, Cidr.class, Cidr::containsCidr),
        CelFunctionBinding.from("cidr_prefix_length", Cidr.class, cidr -> (long) cidr.bits()),
        CelFunctionBinding.from("cidr_masked", Cidr.class, Cidr::masked),
        CelFunctionBinding.from("is_cidr", String.class, IpCidrLibrary::isCidr));
  }

  private static Ip ip(String text) throws CelEvaluationException {
    try {
      return NetAddresses.parseIp(text);
    } catch (NetAddresses.ParseException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static Cidr cidr(String text) throws CelEvaluationException {
    try {
      return NetAddresses.parseCidr(text);
    } catch (NetAddresses.ParseException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static boolean isIp(String text) {
    try {
      NetAddresses.parseIp(text);
      return true;
    } catch (NetAddresses.ParseException e) {
      return false;
    }
  }

  private static boolean isCidr(String text) {
    try {
      NetAddresses.parseCidr(text);
      return true;
    } catch (NetAddresses.ParseException e) {
      return false;
    }
  }
}
