calc --wsf 10
