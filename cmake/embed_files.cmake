# Writes OUT: a C++ file whose function FUNCTION() returns each file of FILES (comma-separated)
# as (key, text) from its static table TABLE; the key is the file's name (KEY = NAME) or its name
# without extension (KEY = NAME_WE), the text a raw string delimited by DELIMITER. Stops with an
# error when a file holds the delimiter.
set(body "#include <string>\n#include <utility>\n#include <vector>\nnamespace vzero {\n")
string(APPEND body "const std::vector<std::pair<std::string, std::string>>& ${FUNCTION}() {\n")
string(APPEND body "  static const std::vector<std::pair<std::string, std::string>> ${TABLE} = {\n")
string(REPLACE "," ";" FILES "${FILES}")
foreach(f ${FILES})
  get_filename_component(key ${f} ${KEY})
  file(READ ${f} text)
  string(FIND "${text}" ")${DELIMITER}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${f} holds the raw-string delimiter )${DELIMITER}\"")
  endif()
  string(APPEND body "    {\"${key}\", R\"${DELIMITER}(${text})${DELIMITER}\"},\n")
endforeach()
string(APPEND body "  };\n  return ${TABLE};\n}\n}  // namespace vzero\n")
file(WRITE ${OUT} "${body}")
