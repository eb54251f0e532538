/* Starts Swagger UI on /docs (api/openapi.py). A file, not an inline script: the page's
   Content-Security-Policy (web/headers.py) runs scripts from the service only. The
   settings come from the container's data-config (JSON: the spec's URL, the app's
   OPENAPI_SWAGGER_UI_CONFIG). */
window.addEventListener("load", function () {
  "use strict";
  var container = document.getElementById("swagger-ui-container");
  var config = JSON.parse(container.dataset.config);
  config.dom_id = "#swagger-ui-container";
  window.ui = SwaggerUIBundle(config);
});
