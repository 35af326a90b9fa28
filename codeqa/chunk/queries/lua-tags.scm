; Lua

; -- definitions -------------------------------------------------------------------------------------------------
(function_declaration name: [(identifier) @name.definition.function
                             (dot_index_expression field: (identifier) @name.definition.function)
                             (method_index_expression method: (identifier) @name.definition.method)])

; -- references --------------------------------------------------------------------------------------------------
(function_call name: (identifier) @name.reference.call)
(function_call name: (dot_index_expression field: (identifier) @name.reference.call))
(function_call name: (method_index_expression method: (identifier) @name.reference.call))
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(function_call
  name: (identifier) @_require (#eq? @_require "require")
  arguments: (arguments . (string content: (string_content) @import)))
