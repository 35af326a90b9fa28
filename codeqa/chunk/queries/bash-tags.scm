; Bash

(function_definition name: (word) @name.definition.function)
(command name: (command_name (word) @name.reference.call))
(command
  name: (command_name (word) @_source (#any-of? @_source "source" "."))
  argument: [(word) @import.relative (string (string_content) @import.relative) (raw_string) @import.relative])
