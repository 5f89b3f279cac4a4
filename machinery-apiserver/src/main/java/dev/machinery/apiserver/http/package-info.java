/**
 * HTTP for the API server: the framework-neutral {@link dev.machinery.apiserver.http.ApiRequest},
 * {@link dev.machinery.apiserver.http.ApiResponse} and {@link
 * dev.machinery.apiserver.http.ApiHandler}, the running server's {@link
 * dev.machinery.apiserver.http.HttpBinding}, and the binding on the JDK's HTTP server, {@link
 * dev.machinery.apiserver.http.JdkHttpBinding}; {@link dev.machinery.apiserver.http.HttpBindings}
 * holds what every binding does the same way (the Netty binding is in {@code
 * machinery-apiserver-netty}).
 */
package dev.machinery.apiserver.http;
