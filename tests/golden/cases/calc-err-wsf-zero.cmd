calc --mem 8G --wsf 0
