/** The Frobber group of api-changes.md, served by the sample server in two versions. */
package dev.machinery.examples.frobber;
