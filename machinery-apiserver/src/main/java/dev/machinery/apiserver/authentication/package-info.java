/**
 * Who a request comes from, as kube-apiserver's authenticators tell it: an {@link
 * dev.machinery.apiserver.authentication.Authenticator} maps a request to a {@link
 * dev.machinery.apiserver.authentication.UserInfo}; client certificates ({@link
 * dev.machinery.apiserver.authentication.X509Authenticator}) and a static token file ({@link
 * dev.machinery.apiserver.authentication.TokenFileAuthenticator}) are chained with {@link
 * dev.machinery.apiserver.authentication.Authenticator#chain} in kube-apiserver's order.
 */
package dev.machinery.apiserver.authentication;
