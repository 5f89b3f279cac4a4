/**
 * HTTP for the API server: the framework-neutral {@link dev.machinery.apiserver.http.ApiRequest},
 * {@link dev.machinery.apiserver.http.ApiResponse} and {@link
 * dev.machinery.apiserver.http.ApiHandler}, and the shipped binding on the JDK's HTTP server,
 * {@link dev.machinery.apiserver.http.JdkHttpBinding}.
 */
package dev.machinery.apiserver.http;
