/**
 * Certificates and keys for serving TLS, as Kubernetes' k8s.io/client-go/util/cert and util/keyutil
 * make and read them, on the JDK alone: {@link
 * dev.machinery.apiserver.certs.SelfSignedCertificates} generates the self-signed CA and serving
 * certificate kube-apiserver makes when it is given no {@code --tls-cert-file}, {@link
 * dev.machinery.apiserver.certs.CertificateBuilder} writes and signs an X.509 v3 certificate in
 * DER, {@link dev.machinery.apiserver.certs.PrivateKeys} reads a private key in every unencrypted
 * PEM form kube-apiserver reads (PKCS#8, PKCS#1, SEC1), and {@link
 * dev.machinery.apiserver.certs.Pem} reads and writes PEM blocks. Bad input data is refused with
 * {@link dev.machinery.apiserver.certs.CertificateDataException}.
 */
package dev.machinery.apiserver.certs;
