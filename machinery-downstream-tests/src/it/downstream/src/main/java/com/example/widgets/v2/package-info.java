/** Widgets v2: "owner" became "maintainer". */
@GenerateConversions(internalPackage = "com.example.widgets.internal", uses = StandardConversions.class)
package com.example.widgets.v2;

import dev.machinery.conversion.GenerateConversions;
import dev.machinery.conversion.StandardConversions;
