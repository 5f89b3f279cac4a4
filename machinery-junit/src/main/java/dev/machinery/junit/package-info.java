/**
 * A Kubernetes API server for JUnit 5 tests in one annotation ({@link
 * dev.machinery.junit.EnableApiServer}).
 */
package dev.machinery.junit;
